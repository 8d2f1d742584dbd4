export {
  MOCK_MODEL,
  MOCK_PROVIDER_ID,
  MockAdapter,
  createMockAdapter,
  type MockAdapterConfig,
} from './adapter';
export {
  mockScenarioSchema,
  type MockScenario,
  type MockScenarioInput,
  type MockStep,
} from './scenario-schema';
export { mockScenarios } from './scenarios';
