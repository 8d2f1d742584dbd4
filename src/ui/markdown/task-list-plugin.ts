import type { MarkdownIt, StateCore, Token } from 'markdown-it';

const TASK_MARKER = /^\[([ xX])\](?:\s|$)/;

/**
 * `- [ ] todo` / `- [x] done` become disabled checkboxes. They are disabled because
 * the preview is read-only: ticking a box must go through the editor, which owns
 * the note's text.
 */
export function taskListPlugin(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task_list', (state: StateCore) => {
    const tokens = state.tokens;
    for (let index = 2; index < tokens.length; index++) {
      const inline = tokens[index];
      if (inline?.type !== 'inline') continue;
      const paragraph = tokens[index - 1];
      const item = tokens[index - 2];
      if (paragraph?.type !== 'paragraph_open' || item?.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      if (first?.type !== 'text') continue;
      const match = TASK_MARKER.exec(first.content);
      if (!match) continue;

      first.content = first.content.slice(match[0].length);
      const checkbox = new state.Token('task_checkbox', 'input', 0);
      checkbox.meta = { checked: match[1] !== ' ' };
      inline.children?.unshift(checkbox);
      item.attrJoin('class', 'task-list-item');
      const list = findParentList(tokens, index - 2, item.level);
      if (
        list &&
        !String(list.attrGet('class') ?? '')
          .split(' ')
          .includes('contains-task-list')
      ) {
        list.attrJoin('class', 'contains-task-list');
      }
    }
  });
  md.renderer.rules['task_checkbox'] = (tokens, index) => {
    const checked = (tokens[index]?.meta as { checked?: boolean } | undefined)?.checked === true;
    return `<input class="task-list-item-checkbox" type="checkbox" disabled${checked ? ' checked' : ''}> `;
  };
}

function findParentList(tokens: Token[], from: number, itemLevel: number): Token | undefined {
  for (let index = from - 1; index >= 0; index--) {
    const token = tokens[index];
    if (
      token?.level === itemLevel - 1 &&
      (token.type === 'bullet_list_open' || token.type === 'ordered_list_open')
    ) {
      return token;
    }
  }
  return undefined;
}
