import { inject } from "vitest"

// In each fork, before its test files: os.tmpdir() reads TMPDIR (see TempRoot.ts).
process.env.TMPDIR = inject("tempRoot")
