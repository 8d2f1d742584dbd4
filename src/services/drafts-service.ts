import { z } from 'zod';
import { AppError, parseInput } from '../contracts';
import { MAX_DRAFT_CHARS } from '../contracts/note-limits';
import type { DraftRepository, DraftRow } from '../db/draft-repository';

/** A tab's unsaved text of a note, as the editor keeps it (crash safety). */
export type NoteDraftDto = DraftRow;

export { MAX_DRAFT_CHARS };

const tabIdSchema = z.string().regex(/^[\w-]{1,64}$/, 'tab_id is 1 to 64 letters, digits, "_" or "-"');
const keySchema = z.object({
  tab_id: tabIdSchema,
  note_id: z.string().min(1, 'note_id is required').max(200),
});
const draftSchema = keySchema.extend({
  title: z.string(),
  folder: z.string().max(1000),
  tags: z.array(z.string().max(1000)).max(1000),
  body: z.string(),
  base_version: z.number().int().min(0),
  saved_at: z.string().datetime({ message: 'saved_at is an ISO 8601 UTC time' }),
});

/**
 * Drafts per tab and note, stored in the core's database: written (debounced)
 * while the user types, removed once their text is stored in the note, and
 * read back after a crash or reload — a draft of any size, where
 * `localStorage` held at most a few mebibytes. A full quota is
 * STORAGE_QUOTA_EXCEEDED with nothing written; the editor keeps the text in
 * memory and writes it again once there is room.
 */
export class DraftsService {
  readonly #drafts: DraftRepository;

  constructor(drafts: DraftRepository) {
    this.#drafts = drafts;
  }

  /** Writes the tab's draft of the note over its previous one; other tabs' drafts stay as they are. */
  async save(input: z.input<typeof draftSchema>): Promise<void> {
    const draft = parseInput(draftSchema, input, 'This draft cannot be kept.');
    const length = draft.title.length + draft.body.length;
    if (length > MAX_DRAFT_CHARS) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'The draft is larger than 64 Mi characters.', {
        field: 'body',
        length,
        max_length: MAX_DRAFT_CHARS,
      });
    }
    await this.#drafts.put(draft);
  }

  /** The tab's draft of the note; null when it has none. */
  async get(input: z.input<typeof keySchema>): Promise<NoteDraftDto | null> {
    const { tab_id, note_id } = parseInput(keySchema, input);
    return (await this.#drafts.get(tab_id, note_id)) ?? null;
  }

  /** Removes the tab's draft of the note (its text is stored); `removed` is false when there was none. */
  async remove(input: z.input<typeof keySchema>): Promise<{ removed: boolean }> {
    const { tab_id, note_id } = parseInput(keySchema, input);
    return { removed: await this.#drafts.delete(tab_id, note_id) };
  }

  /** Every tab's drafts: what start-up recovers once no live tab holds their note. */
  list(): Promise<NoteDraftDto[]> {
    return this.#drafts.all();
  }
}
