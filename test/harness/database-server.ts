import { Client as PostgresClient } from 'pg';

/** Runs `work` with a connection to the server, when there is one. */
export async function onServer(
  serverUrl: string | undefined,
  work: (client: PostgresClient) => Promise<void>,
): Promise<void> {
  if (!serverUrl) return;
  const client = new PostgresClient({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
