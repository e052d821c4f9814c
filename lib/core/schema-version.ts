// The JSON contract's version on its own, so code that must not load zod (the lean `tug snapshot`) can stamp it too.
export const SCHEMA_VERSION = '1';
