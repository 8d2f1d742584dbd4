export interface PickerOption {
  value: string;
  text: string;
}

/** A model listed twice (a catalog and a cache both naming it) is offered once, at its first place. */
export function uniqueOptions<T extends { value: string }>(options: readonly T[]): T[] {
  const seen = new Set<string>();
  return options.filter((option) => {
    if (seen.has(option.value)) return false;
    seen.add(option.value);
    return true;
  });
}
