/**
 * A timer that can be restarted, cheaply, and that does not hold a Node process open. A restart
 * only notes the new deadline (streams restart theirs on every frame); when the timer goes off
 * before that deadline it waits for the rest, so one timer is armed at a time per countdown.
 */
export class Countdown {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #due: number;
  readonly #ms: number;
  readonly #fire: () => void;

  constructor(ms: number, fire: () => void) {
    this.#ms = ms;
    this.#fire = fire;
    this.#due = Date.now() + ms;
    this.#arm(ms);
  }

  /** Starts counting `ms` again from now. */
  restart(): void {
    this.#due = Date.now() + this.#ms;
    // Not armed only inside (or after) `fire`, which may restart it.
    if (this.#timer === undefined) this.#arm(this.#ms);
  }

  #arm(ms: number): void {
    const timer = setTimeout(() => this.#check(), ms);
    (timer as { unref?(): unknown }).unref?.();
    this.#timer = timer;
  }

  #check(): void {
    this.#timer = undefined;
    const left = this.#due - Date.now();
    if (left > 0) this.#arm(left);
    else this.#fire();
  }
}
