import { termErrorSuite } from "../suites/terms/error.ts";
import { CATEGORIES } from "../suites/terms/kinds.ts";

termErrorSuite(CATEGORIES);
