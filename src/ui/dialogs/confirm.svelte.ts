export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  danger: boolean;
}

interface PendingConfirm extends ConfirmRequest {
  resolve: (confirmed: boolean) => void;
}

/** One in-app confirmation at a time; `ask` resolves with the user's answer. */
export class ConfirmState {
  #pending = $state.raw<PendingConfirm | null>(null);

  get request(): ConfirmRequest | null {
    return this.#pending;
  }

  ask(request: ConfirmRequest): Promise<boolean> {
    this.#pending?.resolve(false);
    return new Promise((resolve) => {
      this.#pending = { ...request, resolve };
    });
  }

  answer(confirmed: boolean): void {
    const pending = this.#pending;
    this.#pending = null;
    pending?.resolve(confirmed);
  }

  reset(): void {
    this.answer(false);
  }
}

export const confirmation = new ConfirmState();
