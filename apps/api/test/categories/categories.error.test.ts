import { termErrorSuite } from "./term-suites/error.ts";
import { CATEGORIES } from "./term-suites/kinds.ts";

termErrorSuite(CATEGORIES);
