import { CATEGORIES } from "./term-suites/kinds.ts";
import { termSecuritySuite } from "./term-suites/security.ts";

termSecuritySuite(CATEGORIES);
