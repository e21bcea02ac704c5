import { TAGS } from "../suites/terms/kinds.ts";
import { termSecuritySuite } from "../suites/terms/security.ts";

termSecuritySuite(TAGS);
