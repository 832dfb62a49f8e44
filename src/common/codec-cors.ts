import type { ServerResponse } from 'node:http';

/**
 * The CORS answer for a Temporal Web origin allowed to call the codec from the operator's browser:
 * the API's /codec routes and the operator's codec proxy grant exactly the same.
 */
export function allowCodecOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.setHeader('Vary', 'Origin');
}
