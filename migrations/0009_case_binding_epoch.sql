-- From this moment every case the API starts carries its account binding in its memo. A read of a
-- case started later without one refuses it: it was started by someone other than the API.
CREATE TABLE case_binding_epoch (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  began_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO case_binding_epoch DEFAULT VALUES;
