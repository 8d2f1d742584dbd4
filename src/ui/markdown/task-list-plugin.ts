import type { MarkdownIt } from 'markdown-it';
import type { TaskCheckboxMeta } from '../../core/markdown/syntax';

/**
 * `- [ ] todo` / `- [x] done` become disabled checkboxes. They are disabled because
 * the preview is read-only: ticking a box must go through the editor, which owns
 * the note's text.
 */
export function taskListPlugin(md: MarkdownIt): void {
  md.renderer.rules['task_checkbox'] = (tokens, index) => {
    const checked = (tokens[index]?.meta as TaskCheckboxMeta | undefined)?.checked === true;
    return `<input class="task-list-item-checkbox" type="checkbox" disabled${checked ? ' checked' : ''}> `;
  };
}
