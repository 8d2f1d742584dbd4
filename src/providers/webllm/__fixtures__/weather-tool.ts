import type { MetonaToolDef } from '../../../ir';

/** The one tool the web-llm adapter's tests offer the model. */
export const weatherTool: MetonaToolDef = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City' } },
    required: ['city'],
  },
  category: 'network',
  riskLevel: 'safe',
  requiresPermission: false,
  timeoutMs: 1000,
};
