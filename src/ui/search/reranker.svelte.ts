import type { RerankerSettingsDto } from '../../contracts/reranker';
import { ModelChoiceState } from './model-choice.svelte';

/** The reranker settings shown under the embedding model, and the download they follow. */
export class RerankerState extends ModelChoiceState<RerankerSettingsDto> {}

export const reranker = new RerankerState();
