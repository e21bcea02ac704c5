import { ORGANIZER } from "../suites/linked-posts/kinds.ts";
import { linkedPostLeakSuite } from "../suites/linked-posts/leaks.ts";

linkedPostLeakSuite(ORGANIZER);
