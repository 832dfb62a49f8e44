import { Html, html } from './html';

export interface DocumentPreviewProps {
  /** A console URL: the CSP allows images from the service only. */
  src: string;
  /** The document's name and page, as alt text and as the visible caption alike. */
  caption: string;
}

/** An image of one page of a stored document, captioned with what it is. */
export function documentPreview({ src, caption }: DocumentPreviewProps): Html {
  return html`<figure class="document-preview">
    <img src="${src}" alt="${caption}" />
    <figcaption>${caption}</figcaption>
  </figure>`;
}
