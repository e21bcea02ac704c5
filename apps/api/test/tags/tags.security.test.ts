import { TAGS } from "../categories/term-suites/kinds.ts";
import { termSecuritySuite } from "../categories/term-suites/security.ts";

termSecuritySuite(TAGS);
