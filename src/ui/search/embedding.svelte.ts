import type { EmbeddingSettingsDto } from '../../contracts/embedding';
import { ModelChoiceState } from './model-choice.svelte';

/** The embedding model settings shown beside the index status, and the download they follow. */
export class EmbeddingState extends ModelChoiceState<EmbeddingSettingsDto> {}

export const embedding = new EmbeddingState();
