package api

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Download fetches an image a gateway returned as data[].url, at most
// maxImageDownload bytes. The key and the extra headers go along only when
// the URL has the base URL's scheme and host; anywhere else (a CDN, signed
// storage) the request carries no credentials, and a redirect from the
// gateway to elsewhere is followed without them. data: URIs are decoded
// without a request.
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
	data, err := c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         u.String(),
		credentials: c.sameOrigin(u),
		download:    true,
	}, maxImageDownload)
	if err != nil {
		return nil, fmt.Errorf("downloading the generated image from %s: %w", origin(u), err)
	}
	return data, nil
}
