import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Page } from '../../shell/page.tsx';
import { useStatus } from '../../ui/status.tsx';
import { SETUP_KEY } from './hub-setup-api.ts';
import { newTemplateValues, TemplateEditor } from './template-editor.tsx';
import './hub-setup.css';

/** Templates > Create: code, channel, language and content, rendered live beside the form as typed. */
export function TemplateNewPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const client = useQueryClient();
  return (
    <Page
      title="Create a template"
      lead="The preview renders what you type through a context definition and a sample payload."
    >
      <TemplateEditor
        initial={newTemplateValues()}
        submitLabel="Create template"
        onSaved={(saved) => {
          notify({ text: `Template ${saved.TemplateId} created` });
          client.setQueryData([...SETUP_KEY, 'templates', 'one', saved.TemplateId], saved);
          void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'templates', 'list'] });
          void navigate({ to: '/hub/templates/$id', params: { id: saved.TemplateId } });
        }}
      />
    </Page>
  );
}
