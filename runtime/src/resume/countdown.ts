/**
 * A timer that can be restarted and that does not hold a Node process open: on Node a timer is
 * refreshed in place; under Web-standard typings (browsers, workers) it is cleared and set anew.
 */
type NodeTimer = { refresh?(): unknown; unref?(): unknown };

export class Countdown {
  #timer: ReturnType<typeof setTimeout>;
  readonly #ms: number;
  readonly #fire: () => void;

  constructor(ms: number, fire: () => void) {
    this.#ms = ms;
    this.#fire = fire;
    this.#timer = this.#start();
  }

  /** Starts counting `ms` again from now. */
  restart(): void {
    const timer = this.#timer as NodeTimer;
    if (timer.refresh !== undefined) timer.refresh();
    else {
      clearTimeout(this.#timer);
      this.#timer = this.#start();
    }
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #start(): ReturnType<typeof setTimeout> {
    const timer = setTimeout(this.#fire, this.#ms);
    (timer as NodeTimer).unref?.();
    return timer;
  }
}
