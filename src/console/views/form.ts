import { Html, html } from './html';

export type ButtonKind = 'primary' | 'danger';

export interface PostFormProps {
  /** Absent, the form posts back to the page's own address (an invitation link, which only it knows). */
  action?: string;
  /** The session's CSRF field (`csrfField`): every state-changing form carries it. */
  csrf: Html;
  body: Html;
  /** A question the script asks before sending, for what cannot be undone; without the script it sends at once. */
  confirm?: string;
  className?: string;
}

/** A form that changes something: always POST, always with the CSRF field first. */
export function postForm({ action, csrf, body, confirm, className }: PostFormProps): Html {
  return html`<form
    method="post"
    ${action === undefined ? '' : html`action="${action}"`}
    ${className ? html`class="${className}"` : ''}
    ${confirm ? html`data-confirm="${confirm}"` : ''}
  >
    ${csrf} ${body}
  </form>`;
}

export interface SubmitButtonProps {
  label: Html | string;
  kind?: ButtonKind;
  small?: boolean;
  /** A button that sends a value says which of several buttons of one form was used. */
  name?: string;
  value?: string;
}

export function submitButton({ label, kind, small = false, name, value }: SubmitButtonProps): Html {
  const classes = [kind, small && 'small'].filter(Boolean).join(' ');
  return html`<button
    type="submit"
    ${classes ? html`class="${classes}"` : ''}
    ${name && value ? html`name="${name}" value="${value}"` : ''}
  >
    ${label}
  </button>`;
}

/** One action on one thing (turn on, retry, revoke): a form of a single button. */
export function actionButton(props: Omit<PostFormProps, 'body'> & SubmitButtonProps): Html {
  const { action, csrf, confirm, className, ...button } = props;
  return postForm({ action, csrf, confirm, className, body: submitButton(button) });
}

export interface FieldProps {
  name: string;
  label: string;
  /**
   * The label as `aria-label` instead of a visible `<label>`: for controls in table cells, whose
   * column header already shows it to sighted readers.
   */
  hiddenLabel?: boolean;
  /** Defaults to the name; fields repeated in a table row need ids of their own. */
  id?: string;
  value?: string;
  /** A sentence under the label, tied to the control so it is read with it. */
  hint?: Html | string;
  /**
   * Attributes of this one control (`required`, `maxlength`, `autocomplete`): markup, so only code
   * writes them, never a person's input.
   */
  attributes?: Html;
}

/** The visible label and hint of a field, and the attributes that tie them to its control. */
function labelling({ name, label, hiddenLabel = false, id = name, hint, attributes }: FieldProps): {
  id: string;
  markup: Html | '';
  attributes: Html;
} {
  const hintId = `${id}-hint`;
  const labelMarkup = hiddenLabel ? '' : html`<label for="${id}">${label}</label>`;
  return {
    id,
    markup: html`${labelMarkup}${hint === undefined ? '' : html`<p class="hint" id="${hintId}">${hint}</p>`}`,
    attributes: html`${hiddenLabel ? html`aria-label="${label}"` : ''}
    ${hint === undefined ? '' : html`aria-describedby="${hintId}"`} ${attributes ?? ''}`,
  };
}

export type InputType = 'text' | 'email' | 'password' | 'url' | 'date' | 'search';

/** A labelled input; a password input never shows back what was typed, so it takes no value. */
export function inputField(props: FieldProps & { type?: InputType }): Html {
  const { id, markup, attributes } = labelling(props);
  const type = props.type ?? 'text';
  return html`${markup}
    <input
      id="${id}"
      name="${props.name}"
      type="${type}"
      ${type === 'password' ? '' : html`value="${props.value ?? ''}"`}
      ${attributes}
    />`;
}

export function textareaField(props: FieldProps & { rows?: number }): Html {
  const { id, markup, attributes } = labelling(props);
  const all = html`id="${id}" name="${props.name}" rows="${props.rows ?? 3}" ${attributes}`;
  // On one line: a textarea shows every character between its tags, so the value must touch them.
  return html`${markup} <textarea ${all}>${props.value ?? ''}</textarea>`;
}

export interface Option {
  value: string;
  label: Html | string;
}

/** Options whose label is the value itself, for enums shown as they are sent. */
export function optionsOf(values: readonly string[]): Option[] {
  return values.map((value) => ({ value, label: value }));
}

export function selectField(props: FieldProps & { options: readonly Option[] }): Html {
  const { id, markup, attributes } = labelling(props);
  return html`${markup}
    <select id="${id}" name="${props.name}" ${attributes}>
      ${props.options.map(
        (option) =>
          html`<option value="${option.value}" ${option.value === props.value ? html`selected` : ''}>
            ${option.label}
          </option>`,
      )}
    </select>`;
}

export interface ChoiceGroupProps {
  legend: string;
  name: string;
  type: 'checkbox' | 'radio';
  options: readonly Option[];
  chosen: readonly string[];
  /** Each option's id is `<idPrefix>-<value>`, so a label can point at it. */
  idPrefix: string;
}

/** Checkboxes or radio buttons under one legend, each labelled by its own text. */
export function choiceGroup({ legend, name, type, options, chosen, idPrefix }: ChoiceGroupProps): Html {
  return html`<fieldset>
    <legend>${legend}</legend>
    ${options.map((option) =>
      choice({
        id: `${idPrefix}-${option.value}`,
        name,
        type,
        value: option.value,
        label: option.label,
        checked: chosen.includes(option.value),
      }),
    )}
  </fieldset>`;
}

/** One checkbox or radio button inside its label, so clicking the text ticks it. */
export function choice(props: {
  id: string;
  name: string;
  type: 'checkbox' | 'radio';
  value: string;
  label: Html | string;
  checked: boolean;
}): Html {
  const { id, name, type, value, label } = props;
  const checked = props.checked ? html`checked` : '';
  return html`<label class="checkbox" for="${id}">
    <input id="${id}" name="${name}" type="${type}" value="${value}" ${checked} />
    ${label}
  </label>`;
}

/** Fields the person does not edit but the next request needs (the filters a page was found with). */
export function hiddenFields(fields: Readonly<Record<string, string | number>>): Html {
  return html`${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  )}`;
}

/**
 * A row of search filters: each field in its own cell of the row, one button. A GET form for
 * filters that may stand in a URL; a POST one (with `csrf`) for those that must not, like a patient
 * reference.
 */
export function filtersForm(props: {
  action: string;
  csrf?: Html;
  hidden?: Html;
  fields: readonly Html[];
  button: string;
}): Html {
  return html`<form method="${props.csrf ? 'post' : 'get'}" action="${props.action}" class="filters">
    ${props.csrf ?? ''} ${props.hidden ?? ''} ${props.fields.map((field) => html`<div>${field}</div>`)}
    <button type="submit">${props.button}</button>
  </form>`;
}
