import {
  Button,
  Checkbox,
  CheckboxGroup,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  Select,
  SelectValue,
} from 'react-aria-components';
import { FieldHead } from './FieldHead';

interface ChoiceProps {
  id: string;
  label: string;
  description?: string;
  errorMessage?: string | null;
  isRequired?: boolean;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
}

/** A labelled group of radio buttons (arrow keys move between them). */
export function RadioField({
  id,
  label,
  description,
  errorMessage,
  isRequired,
  value,
  onChange,
  options,
}: ChoiceProps) {
  return (
    <RadioGroup
      id={id}
      className="field field--group"
      value={value || null}
      onChange={onChange}
      isInvalid={Boolean(errorMessage)}
      isRequired={isRequired}
    >
      <FieldHead label={label} description={description} errorMessage={errorMessage} />
      <div className="choices">
        {options.map((o) => (
          <Radio key={o.value} value={o.value} className="choice">
            <span className="choice__mark" aria-hidden="true" />
            {o.label}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  );
}

/** A labelled drop-down list. */
export function SelectField({
  id,
  label,
  description,
  errorMessage,
  isRequired,
  value,
  onChange,
  options,
  placeholder,
}: ChoiceProps & { placeholder: string }) {
  return (
    <Select
      id={id}
      placeholder={placeholder}
      className="field"
      selectedKey={value || null}
      onSelectionChange={(key) => onChange(typeof key === 'string' ? key : '')}
      isInvalid={Boolean(errorMessage)}
      isRequired={isRequired}
    >
      <FieldHead label={label} description={description} errorMessage={errorMessage} />
      <Button className="field__input field__select">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu">
          {options.map((o) => (
            <ListBoxItem key={o.value} id={o.value} className="menu__item">
              {o.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

/** A single tick box, such as an agreement; its error sits next to it. */
export function CheckboxField({
  id,
  label,
  errorMessage,
  isRequired,
  value,
  onChange,
}: {
  id: string;
  label: string;
  errorMessage?: string | null;
  isRequired?: boolean;
  value: boolean;
  onChange: (value: boolean) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      {errorMessage ? (
        <p id={errorId} className="field__error">
          {errorMessage}
        </p>
      ) : null}
      <Checkbox
        id={id}
        className="choice choice--checkbox"
        isSelected={value}
        onChange={onChange}
        isInvalid={Boolean(errorMessage)}
        isRequired={isRequired}
        aria-describedby={errorMessage ? errorId : undefined}
      >
        <span className="choice__box" aria-hidden="true" />
        {label}
      </Checkbox>
    </div>
  );
}

/**
 * A labelled group of tick boxes, several of which may be ticked (a request's document types): one
 * group with its label, hint and error tied to it; the value is the values ticked.
 */
export function CheckboxGroupField({
  id,
  label,
  description,
  errorMessage,
  isRequired,
  value,
  onChange,
  options,
}: Omit<ChoiceProps, 'value' | 'onChange'> & { value: string[]; onChange: (value: string[]) => void }) {
  return (
    <CheckboxGroup
      id={id}
      className="field field--group"
      value={value}
      onChange={onChange}
      isInvalid={Boolean(errorMessage)}
      isRequired={isRequired}
    >
      <FieldHead label={label} description={description} errorMessage={errorMessage} />
      <div className="choices">
        {options.map((o) => (
          <Checkbox key={o.value} value={o.value} className="choice choice--checkbox">
            <span className="choice__box" aria-hidden="true" />
            {o.label}
          </Checkbox>
        ))}
      </div>
    </CheckboxGroup>
  );
}
