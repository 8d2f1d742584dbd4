/**
 * Anthropic signs each thinking block, and a tool-use round must send its
 * thinking back with that signature. The IR's `MetonaMessage` carries
 * `reasoningContent` but has no field for the signature, so the adapter keeps
 * them here, keyed by the thinking text, for the conversations it served.
 * A message from another provider (or from before a reload) has no signature
 * and is sent without its thinking.
 */
export class ThinkingSignatures {
  readonly #byText = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = 256) {
    this.#limit = limit;
  }

  remember(thinking: string, signature: string): void {
    if (thinking === '' || signature === '') return;
    this.#byText.delete(thinking);
    this.#byText.set(thinking, signature);
    if (this.#byText.size > this.#limit) {
      const oldest = this.#byText.keys().next().value;
      if (oldest !== undefined) this.#byText.delete(oldest);
    }
  }

  signatureFor(thinking: string | undefined): string | undefined {
    return thinking ? this.#byText.get(thinking) : undefined;
  }
}
