// Unit tests run in Node; IndexedDB comes from fake-indexeddb so repositories are
// exercised against a real IndexedDB implementation, not mocks.
import 'fake-indexeddb/auto';
