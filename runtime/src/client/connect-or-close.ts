/**
 * Completes `client`'s initialize and returns it; if that fails, closes it (releasing its
 * transport: a child process, a socket) and rethrows. Every generated connect function ends so.
 */
export async function connectOrClose<Client extends { connect(): Promise<void>; close(): Promise<void> }>(
  client: Client,
): Promise<Client> {
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}
