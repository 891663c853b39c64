// A destructive action asks once, in the page: the first tap turns its button into the
// question with Yes and Cancel (window.confirm would stop the page, and its wording is the
// browser's). The question is kept in the component, so a redraw from the table leaves it up;
// undo still takes back what was confirmed.

import { t } from "./i18n.js";
import { Component, h } from "./view.js";

class Confirm extends Component {
  // One function for the component's life: Preact calls a ref again only when it changes, so
  // the question takes the focus when it appears, not at every redraw.
  focusYes = (el) => el?.focus();

  // `asked`: the question is up from the start (the server asked it: a round over one still on);
  // `onCancel`: what Cancel does besides putting the button back.
  render({ id, cls = "btn", label, question, disabled, dataset, onConfirm, onCancel, asked, "aria-label": name }) {
    if (!(this.state.asking ?? asked)) {
      return h("button", { type: "button", class: cls, id, text: label, disabled, dataset, "aria-label": name,
        onclick: () => this.setState({ asking: true }) });
    }
    const answer = (yes) => { this.setState({ asking: false }); if (yes) onConfirm(); else onCancel?.(); };
    return h("span", { class: "confirm", role: "group", "aria-label": label },
      h("span", { class: "confirm-q", text: question }),
      h("button", { type: "button", class: "btn danger confirm-yes", id: id ? `${id}-yes` : null, text: t("confirmYes"), onclick: () => answer(true), ref: this.focusYes }),
      h("button", { type: "button", class: "btn ghost confirm-no", text: t("confirmNo"), onclick: () => answer(false) }));
  }
}

/** A button that asks `question` in the page before it does `onConfirm`. */
export function confirmButton(props) {
  return h(Confirm, props);
}
