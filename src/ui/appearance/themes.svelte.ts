import type { InstalledTheme, ThemePackageInspection } from '../../contracts/themes';

/** A refusal shown under the import buttons: the code, and where in the package it was found. */
export interface ThemeRefusal {
  code: string;
  message: string;
  line: number | null;
  found: string | null;
  /** The theme.yaml fields to fix, when the manifest was refused. */
  fields: string[];
  /** The core's structured details (reason, file, line, column, field, path): where and why. */
  details: Readonly<Record<string, unknown>>;
}

/** The theme settings' state: installed themes and the package being looked at. */
export class ThemesState {
  #list = $state<InstalledTheme[]>([]);
  #inspection = $state<ThemePackageInspection | null>(null);
  #refusal = $state<ThemeRefusal | null>(null);
  #busy = $state(false);

  get list(): InstalledTheme[] {
    return this.#list;
  }

  get inspection(): ThemePackageInspection | null {
    return this.#inspection;
  }

  get refusal(): ThemeRefusal | null {
    return this.#refusal;
  }

  get busy(): boolean {
    return this.#busy;
  }

  setList(list: InstalledTheme[]): void {
    this.#list = list;
  }

  setInspection(inspection: ThemePackageInspection | null): void {
    this.#inspection = inspection;
    if (inspection) this.#refusal = null;
  }

  setRefusal(refusal: ThemeRefusal | null): void {
    this.#refusal = refusal;
    if (refusal) this.#inspection = null;
  }

  setBusy(busy: boolean): void {
    this.#busy = busy;
  }

  reset(): void {
    this.#list = [];
    this.#inspection = null;
    this.#refusal = null;
    this.#busy = false;
  }
}

export const themes = new ThemesState();
