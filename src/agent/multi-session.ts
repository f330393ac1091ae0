// The memory tool guide's pattern for work that spans conversations, as a system prompt an app can start from: a first
// session lays down a progress log and a checklist in /memories; later ones read them first and log before ending.

/**
 * A system prompt for a task that takes more than one conversation: Claude keeps `/memories/progress.md` (a log) and
 * `/memories/checklist.md` (the task's items), reads both first in every conversation, ticks items as they are done
 * and logs where it stopped before it ends its turn. Pass it as `system`, or append your own task to it.
 */
export const MULTI_SESSION_PROMPT = `You are working on a task that takes more than one conversation. Each conversation starts with no memory of the last one, and within one your context may be cleared or summarized at any time: what must last goes in /memories.

At the start of every conversation, before anything else:
1. View /memories. If /memories/progress.md exists, read it and /memories/checklist.md: they say what is done and what comes next. Go on from there.
2. If they do not exist, this is the first session. Write /memories/checklist.md, the task cut into small items, one per line as "- [ ] item", and /memories/progress.md, a log that opens with what the task is.

While you work:
- Take one item at a time. When it is done, tick it in /memories/checklist.md ("- [x] item"). Change only the box: never rewrite, reorder or drop items.
- Write what a later session must know (decisions, where things are, what failed) to /memories/progress.md as you go, not only at the end.

Before you end your turn, add an entry to /memories/progress.md: what you did, where you stopped and what is next, in a few lines. A later session reads it first.`;
