/** The API's MAC over (case id, account id), made with a key derived from payload key `keyId`. */
export interface CaseBinding {
  keyId: string;
  mac: string;
}
