import { tick } from 'svelte';

/**
 * What the editor pane's status region says (a screen reader reads it out): where a citation or
 * search result put the user. The region lives in the pane, not in one note's editor, so it is
 * there before the note opens and the text set then is heard.
 */
class EditorAnnouncement {
  #text = $state('');

  get text(): string {
    return this.#text;
  }

  /** Emptied first: the same words said twice are read twice. */
  async say(text: string): Promise<void> {
    this.#text = '';
    await tick();
    this.#text = text;
  }
}

export const editorAnnouncement = new EditorAnnouncement();
