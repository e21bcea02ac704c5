import { TAGS } from "../suites/terms/kinds.ts";
import { termLeakSuite } from "../suites/terms/leaks.ts";

termLeakSuite(TAGS);
