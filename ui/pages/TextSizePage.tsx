import { useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { TEXT_SIZES, type TextSize } from '../../machines/rules/session-state';
import { updateSession, useSession } from '../session/store';
import { isContentPage } from './content';
import { ContentSections } from '../components/ContentSections';
import { PageHeading } from '../components/PageHeading';

export default function TextSizePage() {
  const { t } = useTranslation('pages');
  const size = useSession((s) => s.componentSize);
  const [announcement, setAnnouncement] = useState('');
  const content: unknown = t('textsize', { returnObjects: true });
  if (!isContentPage(content)) throw new Error('pages:textsize is not a content page');

  const choose = (value: string) => {
    if (!(TEXT_SIZES as readonly string[]).includes(value)) return;
    const next = value as TextSize;
    updateSession((s) => ({ ...s, componentSize: next, assemblySize: next }));
    setAnnouncement(t('textsize.changed', { size: t(`textsize.sizes.${next}`) }));
  };

  return (
    <article className="content-page">
      <PageHeading>{content.title}</PageHeading>
      <p className="lead">{content.intro}</p>
      <RadioGroup className="size-picker" value={size} onChange={choose} orientation="horizontal">
        <Label className="size-picker__label">
          {t('textsize.current', { size: t(`textsize.sizes.${size}`) })}
        </Label>
        <div className="size-picker__options">
          {TEXT_SIZES.map((s) => (
            <Radio key={s} value={s} className={`size-picker__option size-picker__option--${s}`}>
              <span aria-hidden="true" className="size-picker__sample">
                A
              </span>
              {t(`textsize.sizes.${s}`)}
            </Radio>
          ))}
        </div>
      </RadioGroup>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <ContentSections sections={content.sections} />
    </article>
  );
}
