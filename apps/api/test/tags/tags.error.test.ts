import { termErrorSuite } from "../suites/terms/error.ts";
import { TAGS } from "../suites/terms/kinds.ts";

termErrorSuite(TAGS);
