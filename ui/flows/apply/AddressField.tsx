import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { AddressAnswer } from '../../../machines/forms/types';
import { api } from '../../api';
import { TextField } from '../../components/TextField';
import { RadioField } from '../../components/ChoiceFields';
import { toAddressAnswer, type SuggestedAddress } from './address-format';

type Mode = 'building' | 'street' | 'lot';

interface Props {
  id: string;
  label: string;
  description?: string;
  /** An error about the address as a whole. */
  errorMessage?: string | null;
  /** Errors about its parts (`en`, `zh`, `floor` ...), each shown once, at its part. */
  partErrors?: Partial<Record<keyof AddressAnswer, string>>;
  value: AddressAnswer | undefined;
  onChange: (value: AddressAnswer) => void;
}

/**
 * A premises address in English and Chinese with floor(s), unit/room/shop and lot number (spec §3).
 * The address search dialog (spec §2) fills both language lines; every part can also be typed by hand.
 */
export function AddressField({
  id,
  label,
  description,
  errorMessage,
  partErrors = {},
  value,
  onChange,
}: Props) {
  const { t } = useTranslation('wizard');
  const v: AddressAnswer = value ?? { en: '', zh: '' };
  const set = (part: keyof AddressAnswer, text: string) => onChange({ ...v, [part]: text });
  return (
    <fieldset className="field address-field" id={id}>
      <legend className="field__label">{label}</legend>
      {description ? <p className="field__hint">{description}</p> : null}
      {errorMessage ? <p className="field__error">{errorMessage}</p> : null}
      <AddressSearch onChoose={(a) => onChange({ ...v, en: a.en, zh: a.zh })} />
      <div className="field-grid">
        <TextField
          id={`${id}-en`}
          label={t('forms:address.en')}
          value={v.en}
          onChange={(s) => set('en', s)}
          errorMessage={partErrors.en ?? null}
        />
        <TextField
          id={`${id}-zh`}
          label={t('forms:address.zh')}
          value={v.zh}
          onChange={(s) => set('zh', s)}
          errorMessage={partErrors.zh ?? null}
        />
        <TextField
          id={`${id}-floor`}
          label={t('forms:address.floor')}
          value={v.floor ?? ''}
          onChange={(s) => set('floor', s)}
          errorMessage={partErrors.floor ?? null}
        />
        <TextField
          id={`${id}-unit`}
          label={t('forms:address.unit')}
          value={v.unit ?? ''}
          onChange={(s) => set('unit', s)}
          errorMessage={partErrors.unit ?? null}
        />
        <TextField
          id={`${id}-lot`}
          label={t('forms:address.lot')}
          value={v.lot ?? ''}
          onChange={(s) => set('lot', s)}
          errorMessage={partErrors.lot ?? null}
        />
      </div>
    </fieldset>
  );
}

type Search =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'done'; results: { en: string; zh: string }[] }
  | { state: 'failed' };

function AddressSearch({ onChoose }: { onChoose: (a: { en: string; zh: string }) => void }) {
  const { t } = useTranslation('wizard');
  const [mode, setMode] = useState<Mode>('building');
  const [parts, setParts] = useState({ a: '', b: '' });
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  const query = () => {
    if (mode === 'lot') return `D.D. ${parts.a} Lot ${parts.b}`.trim();
    return `${parts.a} ${parts.b}`.trim();
  };
  const run = async () => {
    const q = query();
    if (q.replace(/D\.D\.|Lot/g, '').trim().length < 2) {
      setSearch({ state: 'done', results: [] });
      return;
    }
    setSearch({ state: 'searching' });
    try {
      const answer = await api.get<{ SuggestedAddress?: SuggestedAddress[] }>(
        'address',
        { q, n: 10 },
        { quiet: true, noLoading: true },
      );
      setSearch({ state: 'done', results: (answer.data.SuggestedAddress ?? []).map(toAddressAnswer) });
    } catch {
      setSearch({ state: 'failed' });
    }
  };
  const labels: Record<Mode, [string, string]> = {
    building: [t('address.buildingName'), t('address.buildingNo')],
    street: [t('address.streetName'), t('address.streetNo')],
    lot: [t('address.dd'), t('address.lotNo')],
  };
  return (
    <ModalOverlayTrigger label={t('address.search')}>
      {(close) => (
        <>
          <Heading slot="title" level={2}>
            {t('address.dialogTitle')}
          </Heading>
          <form
            className="form"
            onSubmit={(e) => {
              // The dialog sits in a portal, but React bubbles its submit to the wizard's form around
              // the field: without stopPropagation, Search (or Enter) would submit the application.
              e.preventDefault();
              e.stopPropagation();
              void run();
            }}
          >
            <RadioField
              id="address-mode"
              label={t('address.searchBy')}
              value={mode}
              onChange={(m) => setMode(m as Mode)}
              options={[
                { value: 'building', label: t('address.byBuilding') },
                { value: 'street', label: t('address.byStreet') },
                { value: 'lot', label: t('address.byLot') },
              ]}
            />
            <TextField
              id="address-a"
              label={labels[mode][0]}
              value={parts.a}
              onChange={(a) => setParts((p) => ({ ...p, a }))}
            />
            <TextField
              id="address-b"
              label={labels[mode][1]}
              value={parts.b}
              onChange={(b) => setParts((p) => ({ ...p, b }))}
            />
            <div className="form__actions">
              <Button type="submit" className="button button--primary">
                {t('address.find')}
              </Button>
              <Button className="button" onPress={close}>
                {t('address.manual')}
              </Button>
            </div>
          </form>
          <div role="status" aria-live="polite" className="address-results__status">
            {search.state === 'searching' ? t('address.searching') : null}
            {search.state === 'failed' ? t('address.failed') : null}
            {search.state === 'done'
              ? search.results.length
                ? t('address.found', { count: search.results.length })
                : t('address.none')
              : null}
          </div>
          {search.state === 'done' && search.results.length > 0 ? (
            <ul className="address-results">
              {search.results.map((r, i) => (
                <li key={i}>
                  <span className="address-results__en">{r.en}</span>
                  <span className="address-results__zh" lang="zh-Hant">
                    {r.zh}
                  </span>
                  <Button
                    className="button"
                    aria-label={t('address.useThisLabel', { address: r.en })}
                    onPress={() => {
                      onChoose(r);
                      close();
                    }}
                  >
                    {t('address.useThis')}
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </ModalOverlayTrigger>
  );
}

/** A button that opens a modal dialog; focus returns to the button when it closes. */
function ModalOverlayTrigger({
  label,
  children,
}: {
  label: string;
  children: (close: () => void) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button className="button" onPress={() => setOpen(true)}>
        {label}
      </Button>
      <ModalOverlay isOpen={open} onOpenChange={setOpen} isDismissable className="modal-overlay">
        <Modal className="modal modal--wide">
          <Dialog className="dialog">{children(() => setOpen(false))}</Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
