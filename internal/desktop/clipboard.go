package desktop

import (
	"context"
	"errors"
	"fmt"

	"parley/internal/bytesize"
	"parley/media"
)

// Clip is what the clipboard held: an image or text.
type Clip struct {
	// Image is the image's bytes as the clipboard offered them (PNG from
	// every screenshot tool; JPEG, WEBP or GIF when an app offered only
	// those). Its header was checked: a known format, real dimensions and
	// a decoding cost within media.DecodeBudget. nil when the clipboard
	// held text.
	Image []byte
	// Info is what Image's header says.
	Info media.Info
	// Text is the clipboard's text when it held no image, exactly as the
	// tool printed it (not sanitised: treat it like a bracketed paste,
	// which may itself be a list of copied files). It is never empty.
	Text string
	// Tool is the program that read it ("wl-paste"), for messages.
	Tool string
}

// IsImage reports whether the clipboard held an image.
func (c Clip) IsImage() bool { return c.Image != nil }

// ReadClipboard reads the system clipboard with the session's tool:
// Windows' PowerShell through interop in WSL, wl-paste on Wayland (xclip through XWayland when only that is installed),
// xclip on X11, pbpaste and pngpaste or osascript on macOS, PowerShell on
// Windows. It returns the image when the clipboard holds one and no plain
// text, else the text; when both are offered the text wins, because the
// apps that offer both (spreadsheets, office documents) add a picture of
// what was copied, while screenshot tools and browsers' "Copy Image" offer
// no text. A list of copied files comes back as text (file:// URLs or
// quoted paths) for the paste parser to attach.
//
// Errors are one sentence each and wrap ErrEmpty (nothing copied),
// ErrNoTool (no tool, or no graphical session, and what to install) or
// ErrTimeout (the tool hung and was killed after Timeout); others say the
// tool failed (with its stderr, sanitised), or that the clipboard's image
// is not one parley can send. It may take up to two tool runs of Timeout
// each; run it in a tea.Cmd.
func (s System) ReadClipboard(ctx context.Context) (Clip, error) {
	var c Clip
	var err error
	name, ps := s.wslPowerShell()
	switch sess := s.session(); {
	case ps != "":
		// WSL: the clipboard people copy to is Windows' (WSLg's Wayland
		// clipboard is kept in step for text only).
		c, err = s.readWSL(ctx, name, ps)
	case sess == wayland:
		c, err = s.readWayland(ctx)
	case sess == x11:
		c, err = s.readX11(ctx)
	case sess == macOS:
		c, err = s.readMac(ctx)
	case sess == windows:
		c, err = s.readWindows(ctx)
	default:
		return Clip{}, newError(ErrNoDesktop, "cannot read the clipboard: "+s.noSessionReason()+
			"; paste text with your terminal's paste key, or attach the image file instead")
	}
	if err != nil {
		return Clip{}, err
	}
	if c.Image != nil {
		info, err := checkImage(c.Image, c.Tool)
		if err != nil {
			media.Reclaim(int64(len(c.Image))) // c is dead past this point
			return Clip{}, err
		}
		c.Info = info
	}
	return c, nil
}

// checkImage reads the image's header: a format parley sends, dimensions,
// at most media.MaxJPEGScans scans, and a decoding cost within
// media.DecodeBudget, so a 100000×100000 header is refused here, before
// anything is decoded.
func checkImage(data []byte, tool string) (media.Info, error) {
	info, err := media.Inspect(data)
	if err := refusal(info, err, data, tool); err != nil {
		return info, err
	}
	if err != nil {
		return info, fmt.Errorf("cannot paste the clipboard's image: it is a damaged %s image (%v); copy it again", info.Format.Name(), err)
	}
	return info, nil
}

// imageHead is the head check of a clipboard image being read: what its
// first bytes already refuse (not an image, a header over the budget, a
// JPEG of too many scans) stops the tool, so a refused image is not read
// to the end. A header the head cuts short is left to checkImage.
func imageHead(tool string) func([]byte) error {
	return func(head []byte) error {
		info, err := media.Inspect(head)
		return refusal(info, err, head, tool)
	}
}

// refusedImage is a clipboard image refused from its bytes. Its message
// is the whole sentence, passed on as it is.
type refusedImage struct{ msg string }

func (e *refusedImage) Error() string { return e.msg }

// refusal words what Inspect said of a clipboard image when it refuses
// the image for good; nil otherwise (accepted, or damaged, which only the
// whole image can tell).
func refusal(info media.Info, err error, data []byte, tool string) error {
	return inspectRefusal(info, err, data, refusalText{
		notImage: func(what string) string {
			return fmt.Sprintf("cannot paste the clipboard's image: %s gave %s, not a PNG, JPEG, WEBP or GIF image; copy it again as PNG, or save it and attach the file", tool, what)
		},
		scans:  "cannot paste the clipboard's image: it is %s; copy it again as PNG",
		budget: "cannot paste the clipboard's image: it is %s; copy a smaller image",
	})
}

// refusalText is how one source of images words a refusal: notImage
// says what the data is instead; scans and budget are formats of the
// detail the media package gives.
type refusalText struct {
	notImage      func(what string) string
	scans, budget string
}

// inspectRefusal words what Inspect said of an image read from the
// desktop when it refuses it for good; nil otherwise (accepted, or
// damaged, which only the whole image can tell).
func inspectRefusal(info media.Info, err error, data []byte, t refusalText) error {
	var se *media.ScansError
	switch {
	case errors.Is(err, media.ErrNotImage):
		what := media.DescribeContent(data)
		if what == "" {
			what = "data of an unknown kind"
		}
		return &refusedImage{t.notImage(what)}
	case errors.As(err, &se):
		return &refusedImage{fmt.Sprintf(t.scans, se.Detail())}
	case err != nil:
		return nil
	}
	var be *media.BudgetError
	if err := info.Check(media.DecodeBudget); errors.As(err, &be) {
		return &refusedImage{fmt.Sprintf(t.budget, be.Detail())}
	}
	return nil
}

// tooLargeImage words errTooMuch for an image.
func (s System) tooLargeImage() error {
	return fmt.Errorf("cannot paste the clipboard's image: it is larger than parley reads (%s); save it to a file and shrink it first",
		bytesize.Format(s.maxImage()))
}

// tooMuchText words errTooMuch for text.
func tooMuchText() error {
	return fmt.Errorf("cannot paste the clipboard: its text is longer than parley pastes at once (%s); save it to a file instead",
		bytesize.Format(MaxTextBytes))
}

// readFailed words any other failure of a tool reading the clipboard.
func readFailed(err error, hint string) error {
	var (
		te *ToolError
		ri *refusedImage
	)
	switch {
	case errors.As(err, &ri):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, ErrTimeout):
		return newError(ErrTimeout, "cannot read the clipboard: "+err.Error()+
			"; the program that copied may be busy or gone, so try again or copy once more")
	case errors.As(err, &te) && hint != "":
		return fmt.Errorf("cannot read the clipboard: %w; %s", err, hint)
	}
	return fmt.Errorf("cannot read the clipboard: %w", err)
}
