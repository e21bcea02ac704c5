import { CATEGORIES } from "../suites/terms/kinds.ts";
import { termSecuritySuite } from "../suites/terms/security.ts";

termSecuritySuite(CATEGORIES);
