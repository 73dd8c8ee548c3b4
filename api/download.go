package api

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Download fetches an image a gateway returned as data[].url, at most
// maxImageDownload bytes, from the gateway's own scheme and host only (with
// the key and the extra headers, as for any request to it). A link
// elsewhere, or a redirect from the gateway to elsewhere, is refused before
// any byte is fetched from there: a reply is untrusted, and a link in it
// must not make parley fetch from any host it names. data: URIs are
// decoded without a request.
func (c *Client) Download(ctx context.Context, rawURL string) ([]byte, error) {
	if strings.HasPrefix(rawURL, "data:") {
		_, data, err := parseDataURI(rawURL)
		if err != nil {
			return nil, fmt.Errorf("the gateway returned a data URI that cannot be read: %w", err)
		}
		return data, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the gateway returned an image URL parley cannot fetch (%q): only http(s) URLs work", redactURL(rawURL))
	}
	if u.User != nil {
		return nil, fmt.Errorf("the image URL %s carries a user name or password; parley does not fetch it", redactURL(rawURL))
	}
	if !c.sameOrigin(u) {
		return nil, fmt.Errorf("the image came as a link to %s, and parley downloads images only from the gateway's own host (%s); nothing was saved. Ask the gateway for b64_json images, or use a model that returns them", origin(u), origin(c.base))
	}
	data, err := c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         u.String(),
		credentials: true,
		download:    true,
	}, maxImageDownload)
	if err != nil {
		return nil, fmt.Errorf("downloading the generated image from %s: %w", origin(u), err)
	}
	return data, nil
}
