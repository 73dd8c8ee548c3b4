// Package list is the UI's one list: the model and theme pickers, the
// command list, the sessions browser, the file picker and the image pane
// all draw their rows through it.
//
// A Model keeps the items, the cursor and the scroll offset, filters with
// the one fuzzy matcher of the UI (Score, Rank), tells "nothing here" (a
// sentence the caller gives) from "nothing matches" (naming the filter
// text), says where the cursor is ("3/25") when the rows do not fit, and
// never wraps around: up on the first row stays there. The caller draws
// each row (Options.Render) into exactly the width it is given; the list
// draws exactly its w×h cells and caches each row by its inputs, so a
// frame after a move re-renders two rows, and a frame that changed
// nothing renders none.
//
// A Model is a value: copies are independent (a picker may be copied and
// updated twice), and they share only a cache whose entries are keyed by
// a number no two states share.
package list
