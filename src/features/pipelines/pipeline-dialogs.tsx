import { isPipelineMoving, type Pipeline } from '../../api/pipelines.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useDeletePipeline } from '../../components/pipeline-writes.ts';

/** Deleting a pipeline says what goes with it (jobs, logs, artifacts, reports) and that it cannot be undone. */
export function DeletePipelineDialog({ projectId, pipeline, onClose }: { projectId: number; pipeline: Pipeline; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeletePipeline();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete pipeline #${pipeline.id}?`}
      description={`The pipeline on ${pipeline.ref ?? 'its ref'} is removed with all its jobs, their logs, artifacts and test reports. This cannot be undone.${
        isPipelineMoving(pipeline.status) ? ' It is still running: its jobs stop.' : ''
      }`}
      confirmLabel="Delete pipeline"
      destructive
      write={remove}
      error={remove.error ? `The platform refused: ${errorText(remove.error)}` : null}
      onConfirm={() =>
        remove.mutate(
          { projectId, pipelineId: pipeline.id },
          {
            onSuccess: () => {
              notify(`Deleted pipeline #${pipeline.id}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}
