import { t } from '../i18n';
import type { MermaidLabels } from './mermaid-blocks';

/**
 * The words a drawn diagram carries (its area's name, a failure's sentence) in the UI's
 * language, for the note preview and the theme preview alike. Read when called, so a
 * language switch shows in the next drawing.
 */
export function diagramLabels(): MermaidLabels {
  return {
    syntaxAt: (line) => t('preview.diagramSyntaxAt', { line }),
    endsEarlyAt: (line) => t('preview.diagramEndsEarlyAt', { line }),
    syntax: t('preview.diagramSyntax'),
    failed: t('preview.diagramFailedBare'),
    unsafe: t('preview.diagramUnsafe'),
    details: t('preview.diagramDetails'),
    labelHint: t('plotHelp.mermaidLabelHint'),
    diagram: t('preview.diagramArea'),
  };
}
