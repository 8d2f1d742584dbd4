// Fails the way a plugin with a bug fails: it throws while building its server.
export default function createServer() {
  throw new Error('lookup table not configured');
}
