/**
 * One permission box, shared by the consent page and the Connected apps page. It leads with what the
 * permission lets the app do (the label, so the box's accessible name is that sentence); the scope's
 * identifier follows in small type, outside the label, for a traveler matching it with the app's docs.
 */
import { CONSENT_SCOPES, type ConsentScope } from '../../core/scopes.js';
import { html, type Html } from './html.js';

export function scopeBox(id: string, scope: ConsentScope, ticked: boolean, note?: { id: string; text: Html | string }): Html {
  return html`<div class="scope">
        <input id="${id}" type="checkbox" name="scope" value="${scope}" ${note ? html`aria-describedby="${note.id}" ` : ''}${ticked ? html`checked` : ''}>
        <div><label for="${id}">${CONSENT_SCOPES[scope]}</label>
          <small class="scope-id">${scope}</small>${note ? html`
          <small class="reasked" id="${note.id}">${note.text}</small>` : ''}</div>
      </div>`;
}
