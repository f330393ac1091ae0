// The wording of the person's answer to Claude's writes (`approve`): its own table, so that it loads with the
// approval part (../tool/approval.ts), not with every page that only runs commands.

export const approvalReply = {
  declined: (path: string, why: string | undefined) =>
    `The person declined this write to ${path}${why === undefined ? '' : `: ${why}`}. Nothing was written; do not ` +
    'write it again unless they ask.',
  withdrawn: (path: string) => `The write to ${path} was withdrawn before the person answered. Nothing was written.`,
  changedMeanwhile: (path: string) =>
    `Did not write ${path}: it changed while the person was reviewing this write, twice. Nothing was written; view ` +
    'it again before writing.',
} as const;
