/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import './transfer-handlers';
import { createEmbedWorkerApi } from './embed-worker-api';

// transformers.js is imported on the first load, inside this worker only.
Comlink.expose(createEmbedWorkerApi());
