import { termErrorSuite } from "../categories/term-suites/error.ts";
import { TAGS } from "../categories/term-suites/kinds.ts";

termErrorSuite(TAGS);
