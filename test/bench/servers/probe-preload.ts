/**
 * Preloaded (`node --import`) into a server that is not the bench's own, such as the federator
 * (`serve --federate`), so it reports its CPU time on SIGUSR2 like the bench servers do.
 */
import { installProbe } from "./probe.js";

installProbe();
