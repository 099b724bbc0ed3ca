import { useNavigate } from '@tanstack/react-router';
import { EMPTY_HOOK_FORM } from '../../api/system-hooks.ts';
import { useActiveSession } from '../../api/react.ts';
import { useNotify } from '../../components/toast.tsx';
import { RefusedScreen } from '../../components/refused-screen.tsx';
import { HookForm } from './hook-form.tsx';
import { hookTitle } from './hook-title.ts';
import { useCreateHook } from './mutations.ts';
import { systemHooksAccess } from './permissions.ts';

const TITLE = 'Add a system hook';

export function NewHookScreen() {
  const access = systemHooksAccess(useActiveSession()?.connection);
  const navigate = useNavigate();
  const notify = useNotify();
  const create = useCreateHook();
  if (!access.canManage) return <RefusedScreen title={TITLE} reason={access.reason ?? ''} />;
  return (
    <section className="screen" aria-labelledby="system-hooks-heading">
      <header className="screen__header">
        <h1 id="system-hooks-heading">{TITLE}</h1>
      </header>
      <HookForm
        defaultValues={EMPTY_HOOK_FORM}
        submitLabel="Add system hook"
        pendingLabel="Adding…"
        write={create}
        onCancel={() => void navigate({ to: '/admin/hooks' })}
        onSubmit={(values, onError) =>
          create.mutate(
            { values },
            {
              onSuccess: (hook) => {
                notify(`Added ${hookTitle(hook)}.`);
                void navigate({ to: '/admin/hooks/$hookId', params: { hookId: String(hook.id) } });
              },
              onError,
            },
          )
        }
      />
    </section>
  );
}
