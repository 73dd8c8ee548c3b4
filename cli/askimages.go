package cli

import (
	"fmt"

	"parley/chat"
	"parley/config"
	"parley/internal/homepath"
)

// askImageDir is where ask saves the images a model makes with its reply:
// --save-dir, else image_dir. The demo keeps nothing of the user's, so
// without --save-dir its images are not saved as files.
func (a *app) askImageDir(cfg *config.Config, f askFlags) string {
	switch {
	case f.saveDir != "":
		return config.ExpandHome(f.saveDir, a.env.HomeDir)
	case a.demo:
		return ""
	}
	return cfg.ImageDir()
}

// sayImages names on stderr the files the reply's images were saved as
// (stdout keeps the reply's text alone), and what was not kept.
func (a *app) sayImages(imgs chat.ReplyImages) {
	for _, k := range imgs.Kept[:imgs.Saved] {
		a.console.say("saved image " + homepath.Short(k.Name, a.env.HomeDir))
	}
	if n := len(imgs.Kept) - imgs.Saved; n > 0 {
		a.console.warn(fmt.Sprintf("the reply carried %s not saved as files; give --save-dir DIR to save them", plural(n, "image")))
	}
	for _, note := range imgs.Notes {
		a.console.warn(note)
	}
}
