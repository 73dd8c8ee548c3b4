// Package columns is the compare view: the replies several models give
// to one question (chat.Engine.Compare), side by side in columns of at
// least MinWidth cells when the screen has room for all of them, else one
// at a time with the ‹ i/n › switch of alternatives. Each column is headed
// by its model and shows its own progress (time, tokens, tokens per
// second, cost when its price is known), its reasoning folded to one line,
// its answer as Markdown (rendered incrementally, only the unfinished tail
// again each frame), or its error.
//
// The view is a component: the owner hands it the replies as data
// (Reply) on its frame tick (Sync) and its keys (Key), and it returns what
// the user asked for as an Action (pick a column, stop one, stop all); it
// draws into the rectangle it is given (View) and lists its keys (Hints).
// It never reads the conversation or the engine itself.
package columns
