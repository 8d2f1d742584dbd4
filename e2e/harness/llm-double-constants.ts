// Shared by the LLM worker double (llm-worker-double.ts) and its spec; no imports, so Node loads it as is.
export const DOUBLE_MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
export const DOUBLE_TASKS = [
  'Explain the four conditions',
  'Practise the banker algorithm',
  'List recovery options',
];
export const DOUBLE_ANSWER = 'I added three tasks to your deadlock note.';
export const REQUEST_LOG_PATH = '/__engine-double/request';
