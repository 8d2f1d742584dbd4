/** One line of the conformance report (contract §8.3: provider, model, protocol, time, and why a case is left out or failed). */
export interface ReportRow {
  target: string;
  provider: string;
  model: string;
  protocol: string;
  case: string;
  result: 'passed' | 'failed' | 'unsupported';
  durationMs?: number;
  reason?: string;
}

export function formatReport(rows: readonly ReportRow[]): string {
  const header = ['provider', 'model', 'protocol', 'case', 'result', 'ms', 'reason'];
  const lines = rows.map((row) => [
    row.provider,
    row.model,
    row.protocol,
    row.case,
    row.result,
    row.durationMs === undefined ? '' : row.durationMs.toFixed(0),
    row.reason ?? '',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const counts = (['passed', 'failed', 'unsupported'] as const).map(
    (result) => `${rows.filter((row) => row.result === result).length} ${result}`,
  );
  return [
    'Provider conformance report',
    render(header),
    render(widths.map((width) => '-'.repeat(width))),
    ...lines.map(render),
    counts.join(', '),
    '',
  ].join('\n');
}
