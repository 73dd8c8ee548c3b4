// Package imagegen is parley's one engine for making images: `parley image`
// and the chat's /image and /edit both plan a job here (what the model
// accepts is checked before any request, since images cost money), run it
// against the gateway (links in the reply are downloaded, every image is
// decoded whole before anything is written), and save the images by the
// same rules: `<time>-<slug>-<i>.<ext>` in the image folder, never
// overwriting, the extension of the real format.
package imagegen
