import { linkedPostErrorSuite } from "./linked-post-suites/error.ts";
import { VENUE } from "./linked-post-suites/kinds.ts";

linkedPostErrorSuite(VENUE);
