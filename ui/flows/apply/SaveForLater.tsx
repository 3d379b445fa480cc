import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { fieldById, fieldDomId } from '../../../machines/forms';
import type { FormDefinition } from '../../../machines/forms/types';
import { CONTACT_FIELDS, contactOf } from '../../../machines/rules/contacts';
import { furthestReachableStep } from '../../../machines/flows/apply/steps';
import { focusField } from '../../components/ErrorSummary';
import { focusFieldOnArrival, type ApplyActor } from './apply-store';

/**
 * "Save for later" (docs/decisions/027-draft-kept-on-reload.md): the retrieval code is used with a one-time
 * password sent to the applicant's email or mobile in the form, so without either it could never be used.
 * Then the button does not save for later: it says why and offers to go to the email field (the autosave
 * keeps saving the draft for this tab all the same).
 */
export function SaveForLaterButton({
  actor,
  definition,
  answers,
  stepIndex,
}: {
  actor: ApplyActor;
  definition: FormDefinition;
  answers: Record<string, unknown>;
  stepIndex: number;
}) {
  const { t } = useTranslation('wizard');
  const [asking, setAsking] = useState(false);
  const { contactEmail, contactMobile } = contactOf(answers);
  // The applicant's email (else mobile) field, and whether its step can be opened with these answers.
  const place = fieldById(definition, CONTACT_FIELDS.email) ?? fieldById(definition, CONTACT_FIELDS.mobile);
  const placeStep = place ? definition.steps.indexOf(place.step) : -1;
  const validate = actor.getSnapshot().context.validate;
  const reachable = placeStep >= 0 && placeStep + 1 <= furthestReachableStep(definition, answers, validate);

  const goToContact = () => {
    setAsking(false);
    if (!place) return;
    const id = fieldDomId([place.field.id]);
    if (placeStep === stepIndex) {
      // After the dialog gave focus back to the button.
      requestAnimationFrame(() => focusField(id));
      return;
    }
    focusFieldOnArrival(id);
    actor.send({ type: 'step.goto', step: placeStep + 1 });
  };

  return (
    <>
      <Button
        className="button"
        onPress={() => (contactEmail || contactMobile ? actor.send({ type: 'draft.save' }) : setAsking(true))}
      >
        {t('saveForLater')}
      </Button>
      <ModalOverlay isOpen={asking} onOpenChange={setAsking} isDismissable className="modal-overlay">
        <Modal className="modal">
          <Dialog role="alertdialog" aria-labelledby="no-contact-title" className="dialog">
            <Heading slot="title" id="no-contact-title" level={2}>
              {t('noContact.title')}
            </Heading>
            <p>{t('noContact.body')}</p>
            <p>{t('noContact.kept')}</p>
            <div className="form__actions">
              {reachable ? (
                <Button className="button button--primary" onPress={goToContact}>
                  {t('noContact.add')}
                </Button>
              ) : null}
              <Button className="button" onPress={() => setAsking(false)}>
                {t('noContact.cancel')}
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
